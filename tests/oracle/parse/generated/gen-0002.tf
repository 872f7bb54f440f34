in /* c */ "a\nb" /* c */ {
  k = 1
}null = f()
x1 {
  k = 1
}
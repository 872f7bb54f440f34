in /* c */ "a\nb" /* c */ {
  k = 1
} # c
null = f()
x1 {
  k = 1
} # c

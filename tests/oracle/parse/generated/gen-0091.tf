b_c
{
}
for /* c */ "a\nb" /* c */ "a\nb" /* c */ {
  k = 1
}
a {
}

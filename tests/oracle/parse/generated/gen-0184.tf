if = f(-true,)b_c /* c */ "a\nb" /* c */ "a\nb" /* c */ {
  k = 1
}

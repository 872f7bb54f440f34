null /* c */ é /* c */ "l" /* c */ {
  k = 1
}

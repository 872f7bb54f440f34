if /* c */ "l" /* c */ {
  k = 1
} # c

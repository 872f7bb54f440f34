if /* c */ "l" /* c */ if /* c */ {
  k = 1
} 
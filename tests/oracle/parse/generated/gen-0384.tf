x1 /* c */ "l" /* c */ "" /* c */ { k = 1 }d-e a a { k = 1 }
d-e
{
  k = 1
} # c

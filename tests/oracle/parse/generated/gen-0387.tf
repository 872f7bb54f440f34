x1 /* c */ "l" /* c */ "l" /* c */ { k = 1 }d-e "l" a { k = 1 }
d-e
{ k = 1 } # c

in /* c */ "l" /* c */ if /* c */ {}
b_c = 1
in = # c
[for for in "a${x}b" : "a${x}b" if x]


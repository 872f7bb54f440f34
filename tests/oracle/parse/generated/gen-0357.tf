in /* c */ "l" /* c */ if /* c */ {}
b_c = 1
b_c = 1


in /* c */ a /* c */ if /* c */ {}
a = 1
b_c = 1


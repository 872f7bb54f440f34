a /* c */ a /* c */ if /* c */ {}
a = 1
a = 1


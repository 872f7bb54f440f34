b_c = 1

b_c /* c */ x1 /* c */ { k = 1 } # c

a /* c */ b_c /* c */ "a\nb" /* c */ { k = 1 }

true /* c */ "${x}" /* c */ "a\nb" /* c */ { k = 1 }

a { k = 1 } # c

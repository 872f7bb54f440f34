x = a ? : c

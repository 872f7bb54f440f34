x = !a ? b : c

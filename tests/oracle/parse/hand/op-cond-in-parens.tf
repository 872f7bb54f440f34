x = (a ? b : c)

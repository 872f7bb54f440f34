x = in(1)

a = x++y

x = f(a..., b)

a = x.a

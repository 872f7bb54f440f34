a = [for v, v in x : v]

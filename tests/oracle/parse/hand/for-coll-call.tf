x = [for x in f(y) : x]

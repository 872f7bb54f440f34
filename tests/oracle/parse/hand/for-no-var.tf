x = [for in y : x]

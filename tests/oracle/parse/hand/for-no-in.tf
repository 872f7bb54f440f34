x = [for x y : x]

x = [for i, x in y : x]

x = [for true in y : 1]

x = [for null in y : 1]

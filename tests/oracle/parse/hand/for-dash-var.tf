x = [for a-b in y : a-b]

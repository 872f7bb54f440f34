x = [for x in y : x ? 1 : 2]

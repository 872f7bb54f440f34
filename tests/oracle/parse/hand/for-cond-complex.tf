x = [for x in y : x if x != null && x > 1]

x = [for x in y : x if a if b]

a = [for x in 1e3 : null]

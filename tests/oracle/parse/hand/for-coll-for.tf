x = [for x in [for z in y : z] : x]

x = [for for in y : for]

x = [for]

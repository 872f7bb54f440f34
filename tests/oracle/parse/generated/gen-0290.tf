a = [for for in 1 : 0.5]

null = 0.5é {}

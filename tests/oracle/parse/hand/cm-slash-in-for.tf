a = [for x in y : # c
x]

a = [for x in [1] : # c
x]

# c
a = 1

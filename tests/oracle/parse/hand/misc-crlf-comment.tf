# c
a = 1 // c

a = x#y

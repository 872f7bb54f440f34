a = { k = [for x in y :
x] }

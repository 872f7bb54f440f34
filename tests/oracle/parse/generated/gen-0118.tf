true = 0.5 # c
+ x

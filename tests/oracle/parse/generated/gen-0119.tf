true = 0.5 # c
+ 0.5

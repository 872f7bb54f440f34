if = - -f() # c
a = 1e3 # c

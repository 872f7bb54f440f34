if = - -f() # c
a = - -f() # c

if = - -f() # c
if = - -f() # c

if = - -f() # c
a
{} # c

true = # c
[for x in ( # c
null ) : -1] 
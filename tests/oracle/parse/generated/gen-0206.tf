true = # c
[for x in ( # c
null ) : null] 
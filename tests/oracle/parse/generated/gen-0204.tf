true = # c
[for x in (
null ) : -1] 
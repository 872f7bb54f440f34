a =
[for x in false :
x]

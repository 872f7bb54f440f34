a =
[for x in false :
1]


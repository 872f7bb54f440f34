x1 =
[for x in -1 :
-1]

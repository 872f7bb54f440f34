x1 =
[for x in f() :
-1]

a =
[for x in x : x]

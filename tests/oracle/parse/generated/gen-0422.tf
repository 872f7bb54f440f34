é =
[for for in {} :
[for for in null :
0.5] if x]

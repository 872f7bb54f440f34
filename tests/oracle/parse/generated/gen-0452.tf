in =[for x in {for k, in x.y :x.y => x.y
if x} : # c
[for k, v in 1 : null]]

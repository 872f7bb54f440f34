in = # c
f({}, !"%%{x}"...) # c
for = p::f(x /* c */ ?"%{ else }": p::f(1),f(x...).*,)
null = ["%%{x}" # c
?f(x...): x.0 # c
, true, "s"*
"a${x}b" ] 
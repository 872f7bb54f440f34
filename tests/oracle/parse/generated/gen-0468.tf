é = {(x): "%%{x}"
for = "${~ x ~}"
"q"=x.y}
d-e = p::f([for x in f() :0.5
if x],
null /* c */ && "%{ else }",) # c
for = {(x): "%%{x}"
for = "${~ x ~}"
"q"=x.y}
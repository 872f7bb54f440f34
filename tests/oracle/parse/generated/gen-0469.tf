é = {(x): "%%{x}"
for = "${~ x ~}"
"q"=x.y}
d-e = p::f(null /* c */ && "%{ else }",
null /* c */ && "%{ else }",) # c
for = {(x): "%%{x}"
for = "${~ x ~}"
"q"=x.y}
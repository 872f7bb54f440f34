if = # c
[for k, in p::f() : /* c */ {"q": p::f("%{ if x }y%{ endif }",x[*][*]...)}]a = {for k, v in "%{ if x }y%{ endif }" : "%%{x}" => "%%{x}"
if x}

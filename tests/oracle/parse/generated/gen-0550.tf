if = # c
[for k, in p::f() : /* c */ {"q": p::f("%{ if x }y%{ endif }",x[*][*]...)}]a = p::f()

a =
a::b::f(<<EOT
${
EOT
}
EOT
,x[0],x.*.*,) b_c = # c
[for x in a::b::f() : # c
x[*].y ?a-b: x.*.y if x]

b_c
{ k = 1 }

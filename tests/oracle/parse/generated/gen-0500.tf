é = a::b::f("${"}"}")x1 /* c */ "" /* c */ true /* c */ {}
if = # c
( x.*.* /* c */ < "%{~ for v in l ~}${v}%{~ endfor ~}" ?( f() ):p::f("${ {a = 1}.a }", <<EOT
h
EOT)
)

in = p::f() # c
true = /* c */ a::b::f() é = # c
<<EOT
h ${x}
EOT
 ?true:
[].a
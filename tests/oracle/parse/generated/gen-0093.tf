a b_c for {}

null =
x[*].y # c
?<<EOT
x
EOT
: # c
0.5
b_c
if
true
{ k = 1 }

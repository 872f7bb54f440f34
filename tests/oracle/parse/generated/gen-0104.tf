a b_c for {} null =
<<EOT
h ${x}
EOT
 # c
?x.*.*: # c
0.5
b_c
if
true
{ k = 1 }

x1 = # c
a-b.*.b
a = !!"\n\u00e9" ?f(<<EOT
h ${x}
EOT
,): /* c */ f({for for in <<EOT
h ${x}
EOT
 : 1.5e-3 => 1.5e-3 if x},) # c

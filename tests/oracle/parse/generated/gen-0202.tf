true = # c
[for x in ( # c
<<EOT
h ${x}
EOT
) : []] # c

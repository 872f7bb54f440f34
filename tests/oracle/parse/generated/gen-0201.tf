true = # c
[for k, in [] : # c
{for k, in <<EOT
x
EOT
 :<<EOT
h ${x}
EOT
 => <<EOT
h ${x}
EOT

if x} if x]

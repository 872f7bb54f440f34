é =
{for for in {} : # c
[for k, v in <<EOT
xy
EOT
 : é
if x] => [for k, v in <<EOT
xy
EOT
 : é
if x] if x} # c
null /* c */ "" /* c */ {}
a = <<EOT
x
EOT
 >= # c
"\U00300000" # c

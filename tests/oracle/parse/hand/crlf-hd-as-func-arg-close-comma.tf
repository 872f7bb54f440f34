a = f(<<EOT
x
EOT
, 1)

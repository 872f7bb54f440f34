a = f(<<EOT
hello
EOT
, 2)

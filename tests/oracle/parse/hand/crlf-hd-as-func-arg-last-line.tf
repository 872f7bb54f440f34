a = f(<<EOT
x
EOT
)

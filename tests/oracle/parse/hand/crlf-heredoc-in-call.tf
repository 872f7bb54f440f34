a = f(<<EOT
hello
EOT
)

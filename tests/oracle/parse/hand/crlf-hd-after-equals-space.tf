a =<<EOT
x
EOT

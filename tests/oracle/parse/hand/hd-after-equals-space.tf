a =<<EOT
x
EOT

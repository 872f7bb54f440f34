a = "${<<EOT
x
EOT}"

a = "${<<EOT
x
EOT
}"

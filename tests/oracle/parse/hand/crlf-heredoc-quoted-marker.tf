a = <<"EOT"
hello
EOT

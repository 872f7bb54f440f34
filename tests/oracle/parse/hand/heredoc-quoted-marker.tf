a = <<"EOT"
hello
EOT

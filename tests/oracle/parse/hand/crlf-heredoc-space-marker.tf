a = << EOT
hello
EOT

a = << EOT
hello
EOT

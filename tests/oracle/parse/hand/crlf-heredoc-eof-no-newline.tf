a = <<EOT
hello
EOT
a = <<EOT
hello
EOT

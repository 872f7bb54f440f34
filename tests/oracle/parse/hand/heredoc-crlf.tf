a = <<EOT
hello
EOT

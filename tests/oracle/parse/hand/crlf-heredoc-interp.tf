a = <<EOT
hello ${name}
EOT

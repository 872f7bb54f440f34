a = <<EOT
EOT

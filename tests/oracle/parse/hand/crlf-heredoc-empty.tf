a = <<EOT
EOT

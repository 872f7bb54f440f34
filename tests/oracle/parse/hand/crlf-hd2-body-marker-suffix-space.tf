a = <<EOT
EOT x
EOT

a = <<EOT
EOTX
EOT

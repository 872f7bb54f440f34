a = <<EOT
XEOT
EOT

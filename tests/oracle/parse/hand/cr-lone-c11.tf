a = <<EOT
x
EOT
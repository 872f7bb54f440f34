a = <<EOT
x
EOT
a = <<EOT
x
EOT

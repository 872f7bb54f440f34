a = <<EOT
x
EOT

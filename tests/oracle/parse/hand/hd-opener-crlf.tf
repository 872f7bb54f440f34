a = <<EOT
x
EOT

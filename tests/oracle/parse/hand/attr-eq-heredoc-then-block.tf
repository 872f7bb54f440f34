a = <<EOT
x
EOT
b {}

a = <<EOT
x
EOT
b = 2

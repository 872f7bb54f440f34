a = <<EOT # c
x
EOT

a = <<EOT
x
EOT # c

x = <<EOT
x
EOT
.a

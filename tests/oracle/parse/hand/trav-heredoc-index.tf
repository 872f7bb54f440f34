a = <<EOT
x
EOT
[0]

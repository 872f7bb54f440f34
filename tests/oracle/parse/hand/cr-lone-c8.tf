a = <<EOT
x

EOT

a = <<EOT-
x
EOT-

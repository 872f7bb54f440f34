a = <<EOT-
x
EOT-

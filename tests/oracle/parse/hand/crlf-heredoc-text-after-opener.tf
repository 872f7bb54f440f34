a = <<EOT x
hello
EOT

a = 1
b =
  c = <<EOT
line
EOT
}

x = {
  a = <<EOT
x
EOT
}

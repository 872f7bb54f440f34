a = {
  b = <<EOT
hello
EOT
  c = 1
}

a = 1
b =l" {
  c = <<EOT
line
EOT
}

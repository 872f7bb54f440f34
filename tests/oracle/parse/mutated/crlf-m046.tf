a = 1
b = "x"
block- "l" {
  c = <<EOT
line
EOT
}

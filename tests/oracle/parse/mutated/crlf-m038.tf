ack "l" {
  c = <<EOT
line
EOT
}

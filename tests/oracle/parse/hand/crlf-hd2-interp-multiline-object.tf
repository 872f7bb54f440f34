a = <<EOT
${jsonencode({
  a = 1
})}
EOT

a = <<EOT
${jsonencode({
EOT = 1
})}
EOT

a = <<EOT
${"\nEOT\n"}
EOT

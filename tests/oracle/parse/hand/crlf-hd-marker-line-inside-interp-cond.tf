a = <<EOT
${true ?
EOT : 1}
EOT

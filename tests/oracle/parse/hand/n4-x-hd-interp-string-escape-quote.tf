a = <<EOT
${"\"}"}
EOT

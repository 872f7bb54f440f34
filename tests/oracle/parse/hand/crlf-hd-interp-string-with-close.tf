a = <<EOT
${"}"}
EOT

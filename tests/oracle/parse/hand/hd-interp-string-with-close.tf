a = <<EOT
${"}"}
EOT

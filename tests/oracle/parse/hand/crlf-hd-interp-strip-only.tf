a = <<EOT
${~}
EOT

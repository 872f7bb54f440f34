a = <<EOT
${~}
EOT

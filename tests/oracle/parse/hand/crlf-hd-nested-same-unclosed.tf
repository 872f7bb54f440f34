a = <<EOT
${<<EOT
inner
EOT

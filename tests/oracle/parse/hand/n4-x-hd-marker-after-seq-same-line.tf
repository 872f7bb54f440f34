a = <<EOT
${1}EOT
EOT

a = <<EOT
${
EOT
}
EOT

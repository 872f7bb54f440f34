a = <<EOT
${
EOT
}
EOT

a = <<EOT
${<END
EOT
END
}
EOT

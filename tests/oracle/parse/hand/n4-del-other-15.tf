a = <<EOT
${<<ED
EOT
END
}
EOT

a = <<EOT
${<<END
EOT
END
}
ET

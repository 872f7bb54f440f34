a = <<EOT
${<<END
ET
END
}
EOT

 = <<EOT
${<<END
EOT
END
}
EOT

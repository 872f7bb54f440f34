a = <<ET
${<<END
EOT
END
}
EOT

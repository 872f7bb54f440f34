a = <<EOT
${<<END
EOT
ED
}
EOT

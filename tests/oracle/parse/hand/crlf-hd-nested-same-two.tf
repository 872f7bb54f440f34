a = <<EOT
${<<EOT
i1
EOT
} ${<<EOT
i2
EOT
}
EOT

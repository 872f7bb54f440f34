a = <<EOT
${<<EOT
${<<EOTx
EOT
}
EOT
}
EOT

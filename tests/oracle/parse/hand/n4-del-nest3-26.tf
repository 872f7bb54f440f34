a = <<EOT
${<<EOT
${<<EOT

EOT
}
EOT
}
EOT

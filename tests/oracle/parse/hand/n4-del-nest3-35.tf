a = <<EOT
${<<EOT
${<<EOT
x
EOT
}
ET
}
EOT

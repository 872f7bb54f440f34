a = <<EOT
${<<EOT
${<<EOT
x
ET
}
EOT
}
EOT

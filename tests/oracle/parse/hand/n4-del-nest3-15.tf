a = <<EOT
${<<ET
${<<EOT
x
EOT
}
EOT
}
EOT

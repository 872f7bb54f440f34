a = <<EOT
${<<EOT
${<<ET
x
EOT
}
EOT
}
EOT

a = <<EOT
${<<EOT
${<<EO
x
EOT
}
EOT
}
EOT

a = <<EOT
${<<EO
${<<EOT
x
EOT
}
EOT
}
EOT

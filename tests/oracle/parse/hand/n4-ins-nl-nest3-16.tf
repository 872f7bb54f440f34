a = <<EOT
${<<EO
T
${<<EOT
x
EOT
}
EOT
}
EOT

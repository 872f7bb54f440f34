a = <<EOT
${<<EOT
${<<EOT
x
EO"T
}
EOT
}
EOT

a = <<EOT
${<<EOT
${<<EOT
x
EOT
}
EO"T
}
EOT

a = <<EOT
${<<EOT
${<<EO}T
x
EOT
}
EOT
}
EOT

a = <<EOT
${<<EOT
${<<EOT
x
EO
}
EOT
}
EOT

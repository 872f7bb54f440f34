a = <<EOT
${<<EOT
${<<EOT
x
EOT
}
EO
}
EOT

a = <<EO
${<<EOT
${<<EOT
x
EOT
}
EOT
}
EOT

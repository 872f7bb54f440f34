a = <<EO
T
${<<EOT
${<<EOT
x
EOT
}
EOT
}
EOT

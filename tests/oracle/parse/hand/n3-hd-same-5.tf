a = <<EOT
${<<EOT
${<<EOT
${<<EOT
${<<EOT
x
EOT
}
EOT
}
EOT
}
EOT
}
EOT

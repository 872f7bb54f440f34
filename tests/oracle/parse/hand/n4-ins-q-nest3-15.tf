a = <<EOT
${<<E"OT
${<<EOT
x
EOT
}
EOT
}
EOT

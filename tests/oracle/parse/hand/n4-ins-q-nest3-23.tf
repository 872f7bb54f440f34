a = <<EOT
${<<EOT
${<<E"OT
x
EOT
}
EOT
}
EOT

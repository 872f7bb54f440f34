a = <<EOT
${<<EOT
${<<EOT
x
EOT
}
E"OT
}
EOT

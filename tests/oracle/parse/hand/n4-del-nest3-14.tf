a = <<EOT
${<<OT
${<<EOT
x
EOT
}
EOT
}
EOT

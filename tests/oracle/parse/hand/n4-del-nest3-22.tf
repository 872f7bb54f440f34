a = <<EOT
${<<EOT
${<<OT
x
EOT
}
EOT
}
EOT

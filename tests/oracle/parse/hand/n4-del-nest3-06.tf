a = <<OT
${<<EOT
${<<EOT
x
EOT
}
EOT
}
EOT

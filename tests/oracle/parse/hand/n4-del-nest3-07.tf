a = <<ET
${<<EOT
${<<EOT
x
EOT
}
EOT
}
EOT

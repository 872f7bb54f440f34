a = <<EOT
${<<EOT
${<<EOT
x
EOT
}
EOT
}
EOT
b = 1

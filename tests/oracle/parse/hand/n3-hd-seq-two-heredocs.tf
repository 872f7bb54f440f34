a = <<EOT
${<<EOT
x
EOT
}${<<EOT
y
EOT
}
EOT

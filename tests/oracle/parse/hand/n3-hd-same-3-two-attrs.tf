a = <<EOT
${<<EOT
${<<EOT
x
EOT
}
EOT
}
EOT
b = <<EOT
${<<EOT
y
EOT
}
EOT

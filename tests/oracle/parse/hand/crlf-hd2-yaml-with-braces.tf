a = <<EOT
key: {a: 1, b: [1, 2]}
other: "${x}"
EOT

a = <<EOT
${join("", [<<EOT
x
EOT
, <<EOT
y
EOT
])}
EOT

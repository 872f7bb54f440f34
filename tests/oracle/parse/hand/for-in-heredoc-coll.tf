a = [for v in [<<EOT
x
EOT
] : v]

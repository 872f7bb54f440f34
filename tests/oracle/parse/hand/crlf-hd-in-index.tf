a = x[<<EOT
k
EOT
]

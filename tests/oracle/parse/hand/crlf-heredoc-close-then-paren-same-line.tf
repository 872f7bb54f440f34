a = (<<EOT
x
EOT
)

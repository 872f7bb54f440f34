a = (<<EOT
x
EOT
)

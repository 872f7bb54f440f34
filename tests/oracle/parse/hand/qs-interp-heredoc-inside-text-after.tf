a = "pre ${<<EOT
x
EOT
} post"

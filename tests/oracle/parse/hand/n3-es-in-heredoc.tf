a = <<EOT
\q \u00e9
EOT

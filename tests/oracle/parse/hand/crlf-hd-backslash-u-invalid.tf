a = <<EOT
\uZZ \q
EOT

a = <<EOT
cat <<EOT
hi
EOT
EOT

a = {
  <<EOT
k
EOT
  = 1
}

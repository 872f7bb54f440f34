a = [
  <<EOT
x
EOT
  ,
]

a = [
  <<EOT
hello
EOT
  ,
  1,
]

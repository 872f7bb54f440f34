a = <<EOT
${join(",", [
  for x in ["a"] : x
])}
EOT

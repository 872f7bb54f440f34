a = <<EOT
${f("x",
"EOT")}
EOT

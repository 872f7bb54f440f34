a = <<EOT
${<<EOT
x
EOT
+ 1}
EOT

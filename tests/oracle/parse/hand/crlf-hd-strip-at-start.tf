a = <<EOT
${~ "x"}
EOT

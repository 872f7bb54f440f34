a = <<EOT
${~ "x"}
EOT

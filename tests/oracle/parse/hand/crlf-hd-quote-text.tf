a = <<EOT
"unbalanced
EOT

a = <<EOT
"unbalanced
EOT

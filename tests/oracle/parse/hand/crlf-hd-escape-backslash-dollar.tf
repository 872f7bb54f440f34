a = <<EOT
\${x}
EOT

a = <<EOT
\${x}
EOT

a = <<EOT
${<<END
EOT
ND
}
EOT

a = <<EOT
${<<ND
EOT
END
}
EOT

a = <<EOT
${<<ENDEOT
END
}
EOT

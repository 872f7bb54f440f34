a = <<EOT
${<<END
EO
END
}
EOT

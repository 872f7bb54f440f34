a = <<EOT
${<<END
EOT
END
}
EO

a = <<EO
${<<END
EOT
END
}
EOT

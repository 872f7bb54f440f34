a = <<EOT
${<<END
EOTEND
}
EOT

a = <<EOT
${<<EOT
${<<EOT
xEOT
}
EOT
}
EOT

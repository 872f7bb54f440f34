a = <<EOT
${<<EOT
inner}
EOT
}
EOT

a = <<EOT
${<<EN
EOT
END
}
EOT

a = <<EOT
${<<END
EOT
EN
}
EOT

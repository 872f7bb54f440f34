a = <<EOT
${<<END
OT
END
}
EOT

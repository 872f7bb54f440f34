a = <<EOT
${<<END
EOT
END
}
OT

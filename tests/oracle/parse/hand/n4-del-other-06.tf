a = <<OT
${<<END
EOT
END
}
EOT

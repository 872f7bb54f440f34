a = <<EOT
${<<END
x
END
}
EOT

a = <<EOT
${<<END
${<<FIN
EOT
END
FIN
}
END
}
EOT

a = <<EOT
${<<END
${<<EOT
${<<END
x
END
}
EOT
}
END
}
EOT

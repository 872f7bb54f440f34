a = <<END
${<<EOT
${<<END
x
END
}
EOT
}
END

a = f(<<EOT
${<<EOT
${<<EOT
x
EOT
}
EOT
}
EOT
)

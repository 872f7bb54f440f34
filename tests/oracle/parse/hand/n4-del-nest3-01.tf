a= <<EOT
${<<EOT
${<<EOT
x
EOT
}
EOT
}
EOT

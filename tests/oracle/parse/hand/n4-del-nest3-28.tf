a = <<EOT
${<<EOT
${<<EOT
x
OT
}
EOT
}
EOT

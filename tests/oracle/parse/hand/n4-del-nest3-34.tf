a = <<EOT
${<<EOT
${<<EOT
x
EOT
}
OT
}
EOT

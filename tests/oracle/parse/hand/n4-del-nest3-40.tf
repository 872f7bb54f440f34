a = <<EOT
${<<EOT
${<<EOT
x
EOT
}
EOT
}
OT

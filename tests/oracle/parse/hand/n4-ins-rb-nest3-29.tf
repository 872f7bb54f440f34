a = <<EOT
${<<EOT
${<<EOT
x
E}OT
}
EOT
}
EOT

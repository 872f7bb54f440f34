a = <<EOT
${<<EOT
${<<EOT
x
EOT
}
EOT
}
E}OT

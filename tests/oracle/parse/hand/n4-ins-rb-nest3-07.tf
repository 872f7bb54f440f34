a = <<E}OT
${<<EOT
${<<EOT
x
EOT
}
EOT
}
EOT

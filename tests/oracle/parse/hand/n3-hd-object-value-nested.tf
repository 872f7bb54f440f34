a = {
  k = <<EOT
${<<EOT
${<<EOT
x
EOT
}
EOT
}
EOT
}

a = <<EOT
hello
${~ name ~}
world
EOT

a = { b = <<EOT
x
EOT
}

b { a = <<EOT
x
EOT
}

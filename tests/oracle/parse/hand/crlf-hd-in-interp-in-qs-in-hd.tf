a = <<EOT
x ${"y ${<<EOS
inner
EOS
} z"} w
EOT

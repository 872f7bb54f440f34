a = <<EOT
x ${"y ${<<EOS
inner
EOS
} <<EOT
z"} w
EOT

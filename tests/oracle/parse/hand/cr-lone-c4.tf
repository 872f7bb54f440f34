a = <<EOT
x ${1+1}
EOT

a = <<EOT
${ 1 # c
}
EOT

a = <<EOT
${ 1 # x
EOT
}
EOT

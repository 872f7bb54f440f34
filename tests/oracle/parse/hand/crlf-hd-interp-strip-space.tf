a = <<EOT
${ ~a }
EOT

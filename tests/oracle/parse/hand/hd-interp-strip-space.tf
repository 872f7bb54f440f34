a = <<EOT
${ ~a }
EOT

a = <<EOT
${ "${ {b = "}"}.b }" }
EOT

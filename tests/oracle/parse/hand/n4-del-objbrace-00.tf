 = <<EOT
${ {a = "}"}.a }
EOT

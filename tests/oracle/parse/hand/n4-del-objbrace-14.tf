a = <<EOT
${ { = "}"}.a }
EOT

a = <<ET
${ {a = "}"}.a }
EOT

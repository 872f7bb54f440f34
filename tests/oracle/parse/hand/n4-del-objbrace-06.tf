a = <<OT
${ {a = "}"}.a }
EOT

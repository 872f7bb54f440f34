a = <<E}OT
${ {a = "}"}.a }
EOT

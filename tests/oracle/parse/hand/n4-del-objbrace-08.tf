a = <<EO
${ {a = "}"}.a }
EOT

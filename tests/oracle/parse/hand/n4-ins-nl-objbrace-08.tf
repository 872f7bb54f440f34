a = <<EO
T
${ {a = "}"}.a }
EOT

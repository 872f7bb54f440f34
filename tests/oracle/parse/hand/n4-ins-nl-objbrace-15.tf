a = <<EOT
${ {a
 = "}"}.a }
EOT

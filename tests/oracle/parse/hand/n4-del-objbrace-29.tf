a = <<EOT
${ {a = "}"}.a }
EO

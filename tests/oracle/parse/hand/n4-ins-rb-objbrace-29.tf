a = <<EOT
${ {a = "}"}.a }
EO}T

a = <<EOT
${ {a = "}"}.a }
OT

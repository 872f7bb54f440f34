a = <<EOT
${ {a = "}"}.a }
E"OT

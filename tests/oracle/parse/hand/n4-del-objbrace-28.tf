a = <<EOT
${ {a = "}"}.a }
ET

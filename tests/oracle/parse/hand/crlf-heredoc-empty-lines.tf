a = <<EOT


EOT

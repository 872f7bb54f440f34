a = <<EOT


EOT

a = <<EOT
hello

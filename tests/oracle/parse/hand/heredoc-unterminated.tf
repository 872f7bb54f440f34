a = <<EOT
hello

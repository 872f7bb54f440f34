a = <<EOT
hello
    EOT

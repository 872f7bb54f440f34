a = <<EOT
hello
    EOT

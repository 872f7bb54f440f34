a = <<-EOT
    hello
world
    EOT

a = <<-EOT
  hello
  EOT

a = <<-EOT
  hello
  EOT

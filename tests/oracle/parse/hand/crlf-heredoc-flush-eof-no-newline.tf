a = <<-EOT
  hello
  EOT
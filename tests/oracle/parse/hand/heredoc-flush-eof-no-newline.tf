a = <<-EOT
  hello
  EOT
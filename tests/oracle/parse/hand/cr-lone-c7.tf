a = <<-EOT
  x
  EOT

a = <<-EOT
  x
  EOT

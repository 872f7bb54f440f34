a = <<-EOT
   
  EOT

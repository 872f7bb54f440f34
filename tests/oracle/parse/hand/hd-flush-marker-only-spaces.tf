a = <<-EOT
   
  EOT

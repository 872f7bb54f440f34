a = <<-EOT
  ${ {
  EOT = 1
  }.EOT }
  EOT

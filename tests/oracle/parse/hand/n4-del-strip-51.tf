a = <<-EOT
  %{~ for x in ["a"] ~}
  ${x}
  %{~ endor }
  EOT

a = <<-EOT
  %{~ for x in [""] ~}
  ${x}
  %{~ endfor }
  EOT

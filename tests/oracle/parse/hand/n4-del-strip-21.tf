a = <<-EOT
  %{~ for  in ["a"] ~}
  ${x}
  %{~ endfor }
  EOT

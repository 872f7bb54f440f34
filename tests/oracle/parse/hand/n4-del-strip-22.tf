a = <<-EOT
  %{~ for xin ["a"] ~}
  ${x}
  %{~ endfor }
  EOT

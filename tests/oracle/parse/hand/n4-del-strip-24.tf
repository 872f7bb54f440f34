a = <<-EOT
  %{~ for x i ["a"] ~}
  ${x}
  %{~ endfor }
  EOT

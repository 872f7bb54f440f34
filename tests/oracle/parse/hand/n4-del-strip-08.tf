a = <<-ET
  %{~ for x in ["a"] ~}
  ${x}
  %{~ endfor }
  EOT

a = <<-EOT
  %{~ for x n ["a"] ~}
  ${x}
  %{~ endfor }
  EOT

a = <<-EOT
  %{~ for x in ["a"] ~}
  ${x}
  %{~ edfor }
  EOT

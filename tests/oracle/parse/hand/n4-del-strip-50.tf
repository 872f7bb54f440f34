a = <<-EOT
  %{~ for x in ["a"] ~}
  ${x}
  %{~ enfor }
  EOT

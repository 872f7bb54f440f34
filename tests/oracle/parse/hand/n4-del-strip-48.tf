a = <<-EOT
  %{~ for x in ["a"] ~}
  ${x}
  %{~ ndfor }
  EOT

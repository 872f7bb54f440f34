a = <<-EOT
  %{~ for x in ["a"] ~}
  ${x}
  %{~ endfr }
  EOT

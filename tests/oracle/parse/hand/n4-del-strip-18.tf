a = <<-EOT
  %{~ fr x in ["a"] ~}
  ${x}
  %{~ endfor }
  EOT

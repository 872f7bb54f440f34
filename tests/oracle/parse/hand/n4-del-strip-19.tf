a = <<-EOT
  %{~ fo x in ["a"] ~}
  ${x}
  %{~ endfor }
  EOT

a = <<-EOT
  %{~ or x in ["a"] ~}
  ${x}
  %{~ endfor }
  EOT

a = <<-EOT
  %{~ forx in ["a"] ~}
  ${x}
  %{~ endfor }
  EOT

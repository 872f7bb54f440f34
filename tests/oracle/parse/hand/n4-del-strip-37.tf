a = <<-EOT
  %{~ for x in ["a"] ~}
  {x}
  %{~ endfor }
  EOT

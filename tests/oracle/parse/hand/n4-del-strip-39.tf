a = <<-EOT
  %{~ for x in ["a"] ~}
  ${}
  %{~ endfor }
  EOT

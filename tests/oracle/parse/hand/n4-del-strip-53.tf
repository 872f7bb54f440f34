a = <<-EOT
  %{~ for x in ["a"] ~}
  ${x}
  %{~ endfo }
  EOT

a = <<-OT
  %{~ for x in ["a"] ~}
  ${x}
  %{~ endfor }
  EOT

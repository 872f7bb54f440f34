a = <<-EO
  %{~ for x in ["a"] ~}
  ${x}
  %{~ endfor }
  EOT

a = <<-EOT
  items:
  %{ for i, v in ["a", "b"] ~}
    - name: ${v}
      index: ${i}
  %{ endfor ~}
  EOT

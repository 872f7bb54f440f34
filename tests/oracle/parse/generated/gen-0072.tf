if = /* c */ a::b::f("\n\u00e9"...) true = {null = [for k, v in x[0] : /* c */ <<-EOT
  h
  EOT

if x]}a "" {
}
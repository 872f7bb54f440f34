null = /* c */ {(x): [for x in <<-EOT
  h
  EOT
 : "${~ x ~}"
if x]}
b_c =
a::b::f()
in =
( ( <<-EOT
  h
  EOT
 )).a
x1 =
[for x in a::b::f() : /* c */ f() /* c */ ?1e3: <<-EOT
  h
  EOT

if x]
null = ( {for = "${", 1 = "\q", k=1e3} /* c */ )in = <<-EOT
  h
  EOT
 /* c */ ?f(x...): # c
null
d-e = a::b::f((
x[0] )) 
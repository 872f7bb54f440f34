in = "${x}"
== # c
"${x}" # c
if = # c
(-"\n\u00e9" # c
)
null = [for k, in {for x in p::f(1) : x.0 => x.0} :
{(x) = ( # c
"${"
), (x)={for: <<EOT
h
EOT
1 = x.*.y}, for: (
{} /* c */ )}] # c

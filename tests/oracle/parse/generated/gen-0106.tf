in = "\n\u00e9"
== # c
"\q" if = # c
(-<<EOT
h ${x}
EOT
 # c
)
null = [for k, in {for x in "%%%{x}" : a² => a²} :
{(x) = ( # c
x.*.y
), (x)={for: p::f(1)
1 = <<EOT
cat <<EOT
EOT
}, (x) = ( # c
x.*.y
)}] 
in = "\n\u00e9"
== # c
"\n\u00e9" if = # c
( -<<EOT
h ${x}
EOT
 # c
)
if = {}

in = "\n\u00e9"
== # c
"\q" if = # c
( -<<EOT
h ${x}
EOT
 # c
)
a = {}

in = "${x}"
== # c
"${x}" # c
if = # c
( -"\n\u00e9" # c
)
if = {}

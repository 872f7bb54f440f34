in = "${x}"
== # c
"${x}" # c
if = # c
( !1 # c
)

in = "\n\u00e9"
== # c
"\n\u00e9" if = # c
( !1 # c
)

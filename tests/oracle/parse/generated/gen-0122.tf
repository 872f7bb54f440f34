if = # c
( !1 # c
)
if = # c
( !1 # c
)

a = ( # c
1e3 # c
)

in = ( # c
1e3
)

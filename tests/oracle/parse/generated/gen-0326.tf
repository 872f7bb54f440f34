b_c = # c
( {k: null} # c
)

b_c = ( -1!= # c
"%{ else }" # c
)
x1 = ( -1!= # c
"%{ else }" # c
) if { k = 1 } 
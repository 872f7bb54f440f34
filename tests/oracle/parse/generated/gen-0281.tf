b_c = ( 1.5e-3 )
x1 = ( -1!= # c
"%{ else }" # c
) if { k = 1 } 
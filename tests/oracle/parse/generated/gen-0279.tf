b_c = x[*].y ?a-b: x.*.*
x1 = ( -1!= # c
"%{ else }" # c
) if { k = 1 } 
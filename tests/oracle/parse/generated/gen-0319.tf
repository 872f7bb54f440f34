b_c = (
x # c
|| for ) 
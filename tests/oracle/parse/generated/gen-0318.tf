b_c = (
x # c
|| for ) b_c = 1 ?0.5: "" 
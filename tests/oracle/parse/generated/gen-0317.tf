b_c = (
x # c
|| for ) b_c = for ?false: é


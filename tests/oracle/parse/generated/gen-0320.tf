b_c = (
x || for ) 
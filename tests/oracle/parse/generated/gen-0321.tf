b_c = (
x || x ) 
b_c = # c
x[*][*] /* c
 */
null =x[*][*] b_c {} # c

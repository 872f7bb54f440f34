b_c = # c
x[*][*] /* c
 */
null =x[*][*] é b_c if {} # c

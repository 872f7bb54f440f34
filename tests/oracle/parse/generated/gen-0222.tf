b_c {} /* c
 */
b_c = # c
x[*][*] /* c
 */
b_c {} # c

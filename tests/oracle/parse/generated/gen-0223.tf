b_c {} /* c
 */
b_c {} /* c
 */
b_c {} # c

b_c =
f() /* c
 */

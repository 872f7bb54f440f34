for = # c
p::f() /* c */ != /* c */ 1d-e
{ k = 1 } /* c
 */
d-e
{ k = 1 } /* c
 */

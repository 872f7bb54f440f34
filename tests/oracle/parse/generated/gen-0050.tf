for = # c
p::f() /* c */ != /* c */ 1d-e
{ k = 1 }
d-e
{ k = 1 } /* c
 */

for = # c
p::f() /* c */ != /* c */ 1d-e
{ k = 1 }
x1 "l" {} /* c
 */

true
b_c
null
{ k = 1 }
d-e =
{for for in "%{ else }" : true => true
if x}
x1 b_c {
} /* c
 */

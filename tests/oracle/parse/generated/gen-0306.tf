true = # c
- -for # c
=={for k, v in 0.5 :
a‍b => a‍b
if x}
if = /* c */ -1 /* c */ ?"%{ else }": # c
x - 0.5b_c {
} /* c
 */

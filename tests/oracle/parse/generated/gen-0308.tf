if = /* c */ -1 /* c */ ?"%{ else }": # c
x - 0.5if = /* c */ -1 /* c */ ?"%{ else }": # c
x - xb_c {
} /* c
 */

true = # c
- -for # c
=={for k, v in 0.5 :
a‍b => a‍b
if x}
if = /* c */ - -( /* c */ "%{ else }" # c
)

d-e "" "${x}" {
} /* c
 */

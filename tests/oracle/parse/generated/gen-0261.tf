x1 {
  k = 1
}
x1 = /* c */ {for x in a‍b :
x[*][*] => x[*][*]}
b_c
é
x1
{ k = 1 }

x1 {
  k = 1
}
x1 = /* c */ {for x in a² :
x[*][*] => x[*][*]}
b_c
é
x1
{ k = 1 }

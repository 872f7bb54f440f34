é true "${x}" { k = 1 }
for {}b_c /* c */ true /* c */ true /* c */ {
  k = 1
}

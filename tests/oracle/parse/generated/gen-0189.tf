é true "${x}" { k = 1 }
for {}b_c /* c */ true /* c */ x1 /* c */ {
  k = 1
}

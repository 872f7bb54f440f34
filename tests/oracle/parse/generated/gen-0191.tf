é true "${x}" { k = 1 }
for {}b_c /* c */ "${x}" /* c */ true /* c */ {
  k = 1
}

null {
  k = 1
}

a = 1 ?1: /* c */ 1


for for {}

null /* c */ {
  k = 1
}


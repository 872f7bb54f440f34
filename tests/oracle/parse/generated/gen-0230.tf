for /* c */ {
  k = 1
} d-e =( "")[*]

null = /* c */ []

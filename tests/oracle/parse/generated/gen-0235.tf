for /* c */ {
  k = 1
} for = 0.5
+ 0.5 
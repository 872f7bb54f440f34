for /* c */ {
  k = 1
} for = 0.5
+ 1.5e-3


é /* c */ true /* c */ {
  k = 1
} if {}

x1 /* c */ {
} null {
  k = 1
}
null =
!["$${x}" ] # c

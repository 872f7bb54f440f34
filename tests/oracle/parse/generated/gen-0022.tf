a d-e "l" {
  k = 1
} # c
a = ( x.*.y )
null /* c */ é /* c */ {
}
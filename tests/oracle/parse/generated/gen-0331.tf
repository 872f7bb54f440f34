é /* c */ {
  k = 1
}
in = ( # c
"s" ) # c
if /* c */ {
  k = 1
} # c

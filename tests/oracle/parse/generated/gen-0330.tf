é /* c */ {
  k = 1
}
in = ( # c
"s" ) if /* c */ {
  k = 1
} # c

é /* c */ {
  k = 1
}
in = ( # c
"s" ) if /* c */ {
} # c

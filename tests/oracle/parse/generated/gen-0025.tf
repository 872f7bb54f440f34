a /* c */ é /* c */ {
} # c
a = ( x.*.y )
null /* c */ é /* c */ {
}
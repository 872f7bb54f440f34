x1 in if {
}
x1 = # c
( x.0 ).null null {
}

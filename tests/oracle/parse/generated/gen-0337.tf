x1 = # c
( x.0 ).null x1 = # c
( x.0 ).null null {
}

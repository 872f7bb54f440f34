a d-e "l" {
  k = 1
}a = ( "${" ) null /* c */ é /* c */ {
}

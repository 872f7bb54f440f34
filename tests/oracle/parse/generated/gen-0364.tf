true /* c */ a /* c */ a /* c */ {
} # c
true /* c */ for /* c */ a /* c */ {
  k = 1
}
true /* c */ a /* c */ a /* c */ {
}

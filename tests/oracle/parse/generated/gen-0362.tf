true /* c */ a /* c */ a /* c */ {
} # c
d-e /* c */ for /* c */ "${x}" /* c */ {
  k = 1
}
true /* c */ a /* c */ a /* c */ {
}

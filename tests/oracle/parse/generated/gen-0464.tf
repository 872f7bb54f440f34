b_c /* c */ "a\nb" /* c */ true /* c */ {
  k = 1
} /* c
 */
b_c /* c */ "a\nb" /* c */ true /* c */ {
  k = 1
} /* c
 */
a {
}

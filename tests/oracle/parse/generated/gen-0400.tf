for /* c */ null /* c */ b_c /* c */ {
} /* c
 */
in
{
}

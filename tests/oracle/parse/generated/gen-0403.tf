for
null
b_c
{
} /* c
 */
in
"l"
{
} /* c
 */

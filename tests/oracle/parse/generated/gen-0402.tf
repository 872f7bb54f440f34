for
null
b_c
{
} /* c
 */
in
{
} /* c
 */

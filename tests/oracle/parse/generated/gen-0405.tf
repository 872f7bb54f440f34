for
null
b_c
{
} /* c
 */
a {}

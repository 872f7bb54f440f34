for
null
b_c
{
} /* c
 */
for
null
b_c
{
} /* c
 */

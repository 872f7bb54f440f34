for
d-e
x1
{} /* c
 */
é
for
"a\nb"
{ k = 1 } /* c
 */

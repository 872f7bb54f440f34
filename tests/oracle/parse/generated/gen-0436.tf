for
d-e
x1
{} /* c
 */
é
"l"
"l"
{ k = 1 } /* c
 */

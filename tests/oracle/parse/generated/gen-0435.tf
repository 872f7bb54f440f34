for
d-e
x1
{} /* c
 */
é
"l"
"a\nb"
{ k = 1 } /* c
 */

for
d-e
x1
{}

é
for
"a\nb"
{ k = 1 } /* c
 */

for
d-e
x1
{} /* c
 */
for
d-e
x1
{} /* c
 */

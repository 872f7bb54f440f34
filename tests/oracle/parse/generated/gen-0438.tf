for
d-e
d-e
{} /* c
 */
for
d-e
x1
{} /* c
 */

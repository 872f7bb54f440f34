a =
[for x in क्ष : /* c */ []
if x] null = ( ( # c
x.*.y ) /* c */ ) /* c
 */
x1 =
( "${" /* c */ )

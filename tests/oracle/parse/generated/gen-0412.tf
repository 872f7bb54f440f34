a =
[for x in क्ष : /* c */ []
if x] a = ( ( # c
x.*.y ) /* c */ ) /* c
 */
x1 =
( "${" /* c */ )

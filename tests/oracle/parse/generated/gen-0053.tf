for = # c
1 /* c */ != /* c */ 1for
{ k = 1 } /* c
 */
d-e
{ k = 1 } /* c
 */

a = x[0].null
a /* c */ "a\nb" /* c */ true /* c */ { k = 1 } /* c
 */

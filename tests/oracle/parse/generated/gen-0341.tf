a /* c */ "a\nb" /* c */ true /* c */ { k = 1 }
a /* c */ "a\nb" /* c */ "l" /* c */ { k = 1 } /* c
 */

b_c /* c */ for /* c */ "${x}" /* c */ {}
true {} /* c
 */

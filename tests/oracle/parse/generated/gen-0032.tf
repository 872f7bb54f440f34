é /* c */ true /* c */ {
  k = 1
} if = ([for k, in a‍b : "%%%{x}" if x]
) /* c
 */

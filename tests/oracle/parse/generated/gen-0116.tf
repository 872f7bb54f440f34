true /* c */ {
  k = 1
}
for = f() /* c
 */
a = # c
{"q" = -1
in: a²}.*.b

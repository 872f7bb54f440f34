true /* c */ {
  k = 1
}
for = f() /* c
 */
for = f()

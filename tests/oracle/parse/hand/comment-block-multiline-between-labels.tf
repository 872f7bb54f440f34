resource "a" /* c
 */ "b" {
}

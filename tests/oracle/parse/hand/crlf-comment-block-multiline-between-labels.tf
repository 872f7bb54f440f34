resource "a" /* c
 */ "b" {
}

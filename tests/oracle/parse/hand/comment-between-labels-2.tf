resource "a" /* c */ "b" {
}

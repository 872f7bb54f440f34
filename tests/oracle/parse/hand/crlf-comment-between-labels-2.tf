resource "a" /* c */ "b" {
}

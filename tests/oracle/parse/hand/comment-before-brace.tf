resource "a" "b" /* c */ {
}

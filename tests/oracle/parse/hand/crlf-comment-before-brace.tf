resource "a" "b" /* c */ {
}

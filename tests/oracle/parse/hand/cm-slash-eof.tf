b {
}
// end
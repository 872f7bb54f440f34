b {
}
// end
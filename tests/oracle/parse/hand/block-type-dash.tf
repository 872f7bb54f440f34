a-b {
}

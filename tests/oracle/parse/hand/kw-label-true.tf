resource true x {
}

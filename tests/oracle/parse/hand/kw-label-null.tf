resource null x {
}

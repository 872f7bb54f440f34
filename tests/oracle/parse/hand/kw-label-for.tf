resource for x {
}

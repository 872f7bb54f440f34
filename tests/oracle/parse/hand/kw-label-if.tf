resource if x {
}

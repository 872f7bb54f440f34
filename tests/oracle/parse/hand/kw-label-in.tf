resource in x {
}

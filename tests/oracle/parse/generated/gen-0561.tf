if a {
}

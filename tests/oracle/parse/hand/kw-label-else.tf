resource else x {
}

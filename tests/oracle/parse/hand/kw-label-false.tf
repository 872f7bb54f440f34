resource false x {
}

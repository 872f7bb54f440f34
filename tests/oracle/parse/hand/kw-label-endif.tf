resource endif x {
}

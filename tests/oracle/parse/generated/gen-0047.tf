b_c {
}

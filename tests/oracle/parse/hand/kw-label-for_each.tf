resource for_each x {
}

if "l" if {
}

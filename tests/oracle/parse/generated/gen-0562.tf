if if {
}

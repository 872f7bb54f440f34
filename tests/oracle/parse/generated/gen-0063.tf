if if if {
}

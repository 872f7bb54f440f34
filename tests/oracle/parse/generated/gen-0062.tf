if a if {
}

if {
} # c

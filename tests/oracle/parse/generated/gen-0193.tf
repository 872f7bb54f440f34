null null if {
} 
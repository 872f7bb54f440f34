b_c null if {
} 
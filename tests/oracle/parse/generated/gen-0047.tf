b_c {
} 
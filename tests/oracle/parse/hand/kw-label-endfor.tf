resource endfor x {
}

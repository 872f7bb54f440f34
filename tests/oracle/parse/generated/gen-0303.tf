for {
  k = 1
}
for {
  k = 1
} # c

a = {
  b = (
    true
    ? 1
    : 2
  )
}

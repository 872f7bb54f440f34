check "x" {
  assert {
    condition     = true
    error_message = "no"
  }
}

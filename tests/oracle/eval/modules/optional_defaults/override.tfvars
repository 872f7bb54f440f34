settings = {
  name    = "other"
  enabled = false
  nested  = null
}
defaulted = {
  mode = "manual"
}

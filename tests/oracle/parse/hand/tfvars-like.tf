region = "fr-par"
pools = {
  a = { size = 3 }
}
list = [
  "a",
  "b",
]

names   = ["b", "a", "a", "c"]
numbers = [3, 1, "2", 10, "1"]
objects = [
  { name = "x" },
  { name = "x", port = 80 },
  { name = "a", port = "443" },
]

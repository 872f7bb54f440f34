ports = [
  { name = "http", port = "80" },
  { name = "https", port = 443, protocol = "UDP", expose = "true" },
]

rules = [
  { cidr = "10.0.0.0/8", ports = ["80", 443] },
  { cidr = "0.0.0.0/0", ports = [], extra = "dropped" },
]

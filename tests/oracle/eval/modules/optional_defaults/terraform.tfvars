settings = {
  name = "cluster"
  tags = { env = 1, team = true }
  nested = {
    b = ["2", 3]
  }
}

pools = {
  small = {}
  large = {
    size   = "3"
    labels = { tier = "gold" }
  }
}

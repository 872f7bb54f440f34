region     = "nl-ams"
node_count = "2"
labels = {
  team = "infra"
  tier = 1
}

labels = {
  app     = "web"
  replica = 3
  enabled = true
  ratio   = 0.5
}
limits = {
  cpu    = "2"
  memory = 4096
}
groups = {
  admins = ["alice", 1]
  empty  = []
}

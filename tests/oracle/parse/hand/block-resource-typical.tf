resource "scaleway_k8s_cluster" "main" {
  name    = "prod"
  version = "1.31"
  tags    = ["a", "b"]

  auto_upgrade {
    enable = true
  }
}

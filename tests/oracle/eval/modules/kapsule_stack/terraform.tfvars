cluster = {
  name = "prod"
  autoupgrade = {
    enable = true
  }
  tags = ["b", "a", "b"]
}

pools = [
  {
    name = "infra"
    size = "3"
    taints = [
      { key = "dedicated", value = "infra" },
      { key = "gpu", effect = "NoExecute" },
    ]
  },
  {
    name        = "apps"
    autoscaling = true
    min_size    = 1
    max_size    = 5
    zones       = ["fr-par-1", "fr-par-2"]
    kubelet_args = { maxPods = 110 }
  },
]

helm = {
  ingress = {
    chart   = "ingress-nginx"
    version = "4.11.3"
    values = {
      controller = {
        replicaCount = 2
        service      = { type = "LoadBalancer" }
      }
    }
  }
  certs = {
    chart   = "cert-manager"
    enabled = false
  }
}

nullable_true = null

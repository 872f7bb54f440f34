resource "helm_release" "x" {
  values = [yamlencode({
    controller = {
      replicaCount = 2
      nodeSelector = { "k8s.scaleway.com/pool-name" = "ingress" }
    }
  })]
}

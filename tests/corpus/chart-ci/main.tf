terraform {
  backend "s3" {}
}

provider "scaleway" {}

resource "helm_release" "edge" {
  name       = "edge"
  repository = "https://haproxytech.github.io/helm-charts"
  chart      = "kubernetes-ingress"
  version    = "1.44.3"

  values = [file("${path.module}/charts/edge/ci/prod-values.yaml")]
}

terraform {
  backend "s3" {}
}

provider "scaleway" {}

module "kapsule" {
  source  = "scaleway-terraform-modules/kapsule/scaleway"
  version = "~> 1.0"

  name = "remote"
}

provider "helm" {
  kubernetes {
    host  = module.kapsule.kubeconfig_host
    token = module.kapsule.kubeconfig_token
  }
}

resource "helm_release" "nginx" {
  name       = "ingress-nginx"
  repository = "https://kubernetes.github.io/ingress-nginx"
  chart      = "ingress-nginx"
  version    = "4.12.1"

  values = [yamlencode({
    controller = {
      config = {
        "use-proxy-protocol" = "true"
      }
    }
  })]
}

terraform {
  required_providers {
    scaleway = {
      source  = "scaleway/scaleway"
      version = "~> 2.50"
    }
    helm = {
      source  = "hashicorp/helm"
      version = "~> 2.9"
    }
  }
  backend "s3" {}
}

provider "scaleway" {}

resource "scaleway_vpc_private_network" "pn" {
  name = "helm-v2"
}

resource "scaleway_k8s_cluster" "main" {
  name                        = "helm-v2"
  version                     = "1.30"
  cni                         = "cilium"
  private_network_id          = scaleway_vpc_private_network.pn.id
  delete_additional_resources = false

  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 3
    maintenance_window_day        = "any"
  }
}

resource "scaleway_k8s_pool" "system" {
  cluster_id  = scaleway_k8s_cluster.main.id
  name        = "system-${random_id.system.hex}"
  node_type   = "POP2-2C-8G"
  size        = 2
  autohealing = true

  lifecycle {
    create_before_destroy = true
  }
}

resource "random_id" "system" {
  byte_length = 2
}

provider "helm" {
  kubernetes {
    host                   = scaleway_k8s_cluster.main.kubeconfig[0].host
    token                  = scaleway_k8s_cluster.main.kubeconfig[0].token
    cluster_ca_certificate = base64decode(scaleway_k8s_cluster.main.kubeconfig[0].cluster_ca_certificate)
  }
}

resource "helm_release" "haproxy" {
  name       = "haproxy"
  repository = "https://haproxytech.github.io/helm-charts"
  chart      = "kubernetes-ingress"
  version    = "1.40.1"

  set {
    name  = "controller.nodeSelector.k8s\\.scaleway\\.com/pool-name"
    value = scaleway_k8s_pool.system.name
  }

  set {
    name  = "controller.config.proxy-protocol"
    value = "0.0.0.0/0"
  }
}

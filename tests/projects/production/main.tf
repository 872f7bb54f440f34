locals {
  nodes_subnet = "172.16.0.0/22"
}

resource "scaleway_vpc" "main" {
  name = "prod"
}

resource "scaleway_vpc_private_network" "nodes" {
  name   = "prod-nodes"
  vpc_id = scaleway_vpc.main.id

  ipv4_subnet {
    subnet = local.nodes_subnet
  }
}

resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  type                        = "kapsule-dedicated-4"
  version                     = "1.31"
  cni                         = "cilium"
  private_network_id          = scaleway_vpc_private_network.nodes.id
  delete_additional_resources = false

  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 4
    maintenance_window_day        = "sunday"
  }
}

resource "scaleway_k8s_pool" "system" {
  cluster_id  = scaleway_k8s_cluster.main.id
  name        = "system"
  node_type   = "POP2-2C-8G"
  size        = 2
  autohealing = true
  labels = {
    role = "ingress"
  }

  lifecycle {
    create_before_destroy = true
  }
}

resource "scaleway_k8s_pool" "apps" {
  cluster_id  = scaleway_k8s_cluster.main.id
  name        = "apps"
  node_type   = "PRO2-M"
  size        = 3
  autohealing = true
}

resource "scaleway_lb_ip" "ingress" {
  zone = "fr-par-1"
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
  namespace  = "ingress"
  repository = "https://haproxytech.github.io/helm-charts"
  chart      = "kubernetes-ingress"
  version    = "1.44.3"

  values = [yamlencode({
    controller = {
      nodeSelector = {
        "k8s.scaleway.com/pool-name" = "system"
      }
      service = {
        type = "LoadBalancer"
        annotations = {
          "service.beta.kubernetes.io/scw-loadbalancer-ip-ids"            = split("/", scaleway_lb_ip.ingress.id)[1]
          "service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2" = "true"
        }
      }
      config = {
        "proxy-protocol" = local.nodes_subnet
      }
    }
  })]
}

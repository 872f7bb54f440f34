terraform {
  required_providers {
    scaleway = {
      source  = "scaleway/scaleway"
      version = ">= 2.60.0"
    }
  }
  backend "s3" {
    bucket = "state"
    key    = "tags.tfstate"
  }
}

provider "scaleway" {}

variable "edge_node_type" {
  type    = string
  default = "DEV1-L"
}

resource "scaleway_vpc_private_network" "pn" {
  name = "tags"
}

resource "scaleway_k8s_cluster" "k8s" {
  name                        = "tags"
  type                        = "kapsule-dedicated-8"
  version                     = "1.32"
  cni                         = "calico"
  private_network_id          = scaleway_vpc_private_network.pn.id
  delete_additional_resources = false

  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 1
    maintenance_window_day        = "tuesday"
  }
}

resource "scaleway_k8s_pool" "edge" {
  cluster_id  = scaleway_k8s_cluster.k8s.id
  name        = "edge-${lower(replace(var.edge_node_type, "-", "_"))}"
  node_type   = var.edge_node_type
  size        = 2
  autohealing = true
  tags        = ["role=edge", "taint=dedicated=edge:NoSchedule"]

  lifecycle {
    create_before_destroy = true
  }
}

resource "scaleway_k8s_pool" "core" {
  cluster_id  = scaleway_k8s_cluster.k8s.id
  name        = "core-pop2"
  node_type   = "POP2-4C-16G"
  size        = 3
  autohealing = true
  tags        = ["noprefix=node-role.kubernetes.io/core=true"]

  lifecycle {
    create_before_destroy = true
  }
}

provider "helm" {
  kubernetes {
    host                   = scaleway_k8s_cluster.k8s.kubeconfig[0].host
    token                  = scaleway_k8s_cluster.k8s.kubeconfig[0].token
    cluster_ca_certificate = base64decode(scaleway_k8s_cluster.k8s.kubeconfig[0].cluster_ca_certificate)
  }
}

resource "helm_release" "traefik" {
  name       = "traefik"
  repository = "https://traefik.github.io/charts"
  chart      = "traefik"
  version    = "41.3.0"

  values = [<<-YAML
    nodeSelector:
      k8s.scaleway.com/role: edge
    tolerations:
      - key: k8s.scaleway.com/dedicated
        operator: Equal
        value: edge
        effect: NoSchedule
    service:
      annotations:
        service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "true"
    ports:
      websecure:
        proxyProtocol:
          trustedIPs:
            - 172.16.0.0/22
  YAML
  ]
}

resource "helm_release" "nginx" {
  name       = "internal"
  repository = "https://kubernetes.github.io/ingress-nginx"
  chart      = "ingress-nginx"
  version    = "4.12.0"

  values = [yamlencode({
    controller = {
      nodeSelector = { "node-role.kubernetes.io/core" = "true" }
    }
  })]
}

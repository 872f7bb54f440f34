variable "replicas" {
  type    = number
  default = 2
}

variable "annotations" {
  type = map(string)
  default = {
    "service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2" = "true"
    "service.beta.kubernetes.io/scw-loadbalancer-zone"              = "fr-par-1"
  }
}

variable "tolerations" {
  type    = list(string)
  default = ["node.kubernetes.io/ingress"]
}

locals {
  rendered = templatefile("${path.module}/values.yaml.tftpl", {
    replicas    = var.replicas
    annotations = var.annotations
    pool        = "ingress"
    tolerations = var.tolerations
    proxy       = true
  })
  decoded = yamldecode(local.rendered)

  encoded = yamlencode({
    controller = {
      replicaCount = var.replicas
      service = {
        annotations = var.annotations
      }
      extraArgs = ["--enable-ssl-passthrough", "--v=2"]
      config = {
        "use-forwarded-headers" = true
        "log-format-upstream"   = "$remote_addr - [$time_local] \"$request\""
        "server-snippet"        = "location /x {\n  return 200;\n}\n"
      }
    }
  })

  inline = <<-YAML
    controller:
      kind: DaemonSet
      hostNetwork: ${var.replicas > 1}
      resources:
        requests: {cpu: 100m, memory: 90Mi}
    YAML

  merged = merge(yamldecode(local.inline).controller, { replicaCount = var.replicas })
}

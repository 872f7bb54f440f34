resource "helm_release" "ingress" {
  name             = "haproxy-ingress"
  namespace        = "ingress"
  create_namespace = true
  repository       = "https://haproxytech.github.io/helm-charts"
  chart            = "kubernetes-ingress"
  version          = "1.44.3"

  values = [
    file("${path.module}/values/haproxy-values.yaml"),
    yamlencode({
      controller = {
        service = {
          annotations = {
            "service.beta.kubernetes.io/scw-loadbalancer-ip-ids" = split("/", scaleway_lb_ip.ingress.id)[1]
            "service.beta.kubernetes.io/scw-loadbalancer-zone"   = scaleway_lb_ip.ingress.zone
          }
        }
      }
    }),
  ]
}

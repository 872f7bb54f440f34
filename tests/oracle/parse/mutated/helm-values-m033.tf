locals {
  yaml_values = yamlencode({
    controller = {
      resources = { requests = { cpu = "100m", memory = "90Mi" } }
      extraArgs = { "enable-ssl-passthrough" = "" }
    }
  })
  tmpl = templatefile("${path.module}/values.yaml.tftpl", {
    replicas = 2
    zone
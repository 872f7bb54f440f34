variable "replicas" {
  type    = number
  default = 2
}

variable "hosts" {
  type    = list(string)
  default = ["a.example.com", "b.example.com"]
}

variable "annotations" {
  type = map(string)
  default = {
    "service.beta.kubernetes.io/scw-loadbalancer-zone"           = "fr-par-1"
    "service.beta.kubernetes.io/scw-loadbalancer-use-hostname"   = "true"
  }
}

variable "tolerations" {
  type = list(object({
    key      = string
    operator = optional(string, "Exists")
    effect   = optional(string)
  }))
  default = [{ key = "dedicated" }, { key = "gpu", operator = "Equal", effect = "NoSchedule" }]
}

variable "extra" {
  type    = map(any)
  default = {}
}

variable "zones" {
  type    = set(string)
  default = ["fr-par-2", "fr-par-1", "fr-par-3"]
}

variable "region" {
  type    = string
  default = "fr-par"
}

variable "environment" {
  type    = string
  default = "production"
}

variable "kubernetes_version" {
  description = "Minor version; patches are applied by auto-upgrade."
  type        = string
  default     = "1.35"
}

variable "apps_node_type" {
  type    = string
  default = "PRO2-M"
}

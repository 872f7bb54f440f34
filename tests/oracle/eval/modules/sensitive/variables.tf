variable "token" {
  type      = string
  default   = "s3cr3t"
  sensitive = true
}
variable "credentials" {
  type = object({
    user     = string
    password = string
  })
  default = {
    user     = "admin"
    password = "hunter2"
  }
  sensitive = true
}
locals {
  header = "Bearer ${var.token}"
  user   = var.credentials.user
}

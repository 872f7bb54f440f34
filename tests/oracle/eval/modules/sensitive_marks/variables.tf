# Sensitive variables of every kind of type, set from terraform.tfvars or by their defaults, and
# the expressions that read them: what Terraform marks sensitive, and what it keeps of the type.
variable "secret" {
  type      = string
  sensitive = true
}
variable "csv" {
  type      = string
  sensitive = true
}
variable "json_text" {
  type      = string
  sensitive = true
  default   = "{\"user\":\"admin\",\"ports\":[80,443]}"
}
variable "number" {
  type      = number
  sensitive = true
  default   = 3
}
variable "cidr" {
  type      = string
  sensitive = true
  default   = "10.1.0.0/16"
}
variable "when" {
  type      = string
  sensitive = true
  default   = "2024-05-01T10:00:00Z"
}
variable "l" {
  type      = list(string)
  sensitive = true
}
variable "s" {
  type      = set(string)
  sensitive = true
  default   = ["b", "a"]
}
variable "m" {
  type      = map(string)
  sensitive = true
}
variable "o" {
  type = object({
    user = string
    pass = optional(string, "dflt")
    port = optional(number)
  })
  sensitive = true
}
variable "pools" {
  type = list(object({
    name = string
    size = number
  }))
  sensitive = true
  default   = [{ name = "p1", size = 1 }, { name = "p2", size = 2 }]
}
variable "plain" {
  type    = string
  default = "visible"
}

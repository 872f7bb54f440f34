variable "names" {
  type = set(string)
}
variable "numbers" {
  type = set(number)
}
variable "objects" {
  type = set(object({
    name = string
    port = optional(number, 80)
  }))
  default = []
}
variable "mixed" {
  type    = set(string)
  default = [1, "1", true, "b"]
}

variable "anything" {
  type = any
}
variable "list_any" {
  type = list(any)
}
variable "map_any" {
  type = map(any)
}
variable "object_any" {
  type = object({
    a = any
    b = optional(any, "d")
  })
}
variable "list_any_mixed" {
  type    = list(any)
  default = [[1], ["a"]]
}
variable "map_any_objects" {
  type = map(any)
  default = {
    x = { a = 1 }
    y = { a = "s" }
  }
}

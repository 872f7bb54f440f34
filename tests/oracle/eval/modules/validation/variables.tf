variable "size" {
  type    = number
  default = 5

  validation {
    condition     = var.size < 3
    error_message = "The size must be below 3."
  }
}
variable "fine" {
  type    = string
  default = "fr-par"

  validation {
    condition     = startswith(var.fine, "fr-")
    error_message = "A French region."
  }
}
variable "required_not_null" {
  type     = string
  nullable = false
  default  = "x"
}

output "ids" {
  value = a.b[*].id
}

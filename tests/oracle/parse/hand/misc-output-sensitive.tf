output "x" {
  value     = a.b[0].c
  sensitive = true
}

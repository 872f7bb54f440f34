a = "%{ if true
}ok%{ endif }"

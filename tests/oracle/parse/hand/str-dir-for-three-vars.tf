a = "%{ for a, b, c in y }a%{ endfor }"

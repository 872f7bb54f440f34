a = "%{ for a, b, c in [] }%{ endfor }"

a = "%{ for x [1] }y%{ endfor }"

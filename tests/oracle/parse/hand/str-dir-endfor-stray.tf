a = "%{ endfor }"

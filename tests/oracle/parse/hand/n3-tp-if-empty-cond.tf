a = "%{ if }y%{ endif }"

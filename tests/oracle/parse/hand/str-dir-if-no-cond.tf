a = "%{ if }a%{ endif }"

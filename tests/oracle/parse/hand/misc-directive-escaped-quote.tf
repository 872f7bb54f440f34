a = "%{ if b == \"c\" }d%{ endif }"

a = "%{ if 1 + 2 == 3 && !false }ok%{ endif }"

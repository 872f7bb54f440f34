a = "%{ if a }b%{ endif x }"

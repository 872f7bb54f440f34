a = { "%{ if b }x%{ endif }" = 1 }

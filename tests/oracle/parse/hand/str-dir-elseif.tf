a = "%{ if a }x%{ else if b }y%{ endif }"

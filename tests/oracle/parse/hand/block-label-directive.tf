a "%{ if b }x%{ endif }" {}

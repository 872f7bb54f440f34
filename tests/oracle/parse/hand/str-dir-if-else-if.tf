a = "%{ if a }1%{ else }%{ if b }2%{ endif }%{ endif }"

a = "%{ if a }b%{ else }c%{ else }d%{ endif }"

a = "%{ if true }a%{ else }b%{ else }c%{ endif }"

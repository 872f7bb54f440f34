a = "%{ if "${x}" == "a" }y%{ endif }"

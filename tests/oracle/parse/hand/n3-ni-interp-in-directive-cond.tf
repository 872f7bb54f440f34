a = "%{ if "${true}" == "true" }y%{ endif }"

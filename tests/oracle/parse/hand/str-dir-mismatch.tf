a = "%{ if a }%{ endfor }"

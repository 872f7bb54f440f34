a = "%{ if true }%{ endfor }"

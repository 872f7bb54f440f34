a = "%{ if a }%{ for x in y }${x}%{ endfor }%{ endif }"

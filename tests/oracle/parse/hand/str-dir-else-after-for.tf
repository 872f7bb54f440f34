a = "%{ for x in y }${x}%{ else }z%{ endfor }"

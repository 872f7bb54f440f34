a = "%{ for x in [1] ~}%{ for y in [2] ~}${x}${y}%{~ endfor }%{~ endfor }"

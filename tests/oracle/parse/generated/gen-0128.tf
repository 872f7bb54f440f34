é = x[*][*] && /* c */ "%{ if x }y%{ endif }" # c
é = x[*][*] && /* c */ "%{ if x }y%{ endif }" # c
true {}
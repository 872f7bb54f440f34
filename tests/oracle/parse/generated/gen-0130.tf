é = x[*][*] && /* c */ "%{ if x }y%{ endif }" # c
é = x[*][*] && /* c */ 1 # c
true = 1
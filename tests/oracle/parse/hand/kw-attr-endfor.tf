endfor = 1

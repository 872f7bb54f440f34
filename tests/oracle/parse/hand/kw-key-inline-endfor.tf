a = { endfor = 1 }

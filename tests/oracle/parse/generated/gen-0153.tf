true
d-e
if
{ k = 1 }

b_c = "%%{x}".a

null ="%%{x}".a # c

true
if
if
{ k = 1 }

b_c = "%%{x}".a

true
if
if
{ k = 1 } # c

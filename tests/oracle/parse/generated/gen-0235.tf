null
{ k = 1 } # c

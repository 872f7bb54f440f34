a
{} # c
if = -[]

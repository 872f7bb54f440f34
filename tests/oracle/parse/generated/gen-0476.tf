if = -[]
if = -[]

if = -[] # c
if = -[]

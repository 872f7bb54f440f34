if {} # c
if {}

if {} # c
if {} # c

for = {} # c

a {} # c

a = [for x in null : -1 if x]

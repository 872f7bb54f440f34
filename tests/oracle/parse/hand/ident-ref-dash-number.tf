a = b-1

a = b-c

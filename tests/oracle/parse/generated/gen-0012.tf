d-e = 1

a = 1e5

a = 1E5

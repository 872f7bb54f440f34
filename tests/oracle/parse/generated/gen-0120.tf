true = 0.5 + 0.5

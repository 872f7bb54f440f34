true = 1 % 1e3

a = 1e+

a = 1e3
a = 1e3

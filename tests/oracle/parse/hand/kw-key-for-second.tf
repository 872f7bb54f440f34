a = { b = 2, for = 1 }

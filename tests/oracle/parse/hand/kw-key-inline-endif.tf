a = { endif = 1 }

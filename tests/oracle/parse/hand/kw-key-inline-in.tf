a = { in = 1 }

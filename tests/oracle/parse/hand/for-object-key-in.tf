x = { in = 1 }

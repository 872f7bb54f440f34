a = { for = 1, b = 2 }

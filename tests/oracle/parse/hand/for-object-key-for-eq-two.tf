x = { for = 1, b = 2 }

x = { for = 1 }

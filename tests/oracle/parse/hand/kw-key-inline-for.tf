a = { for = 1 }

a = { else = 1 }

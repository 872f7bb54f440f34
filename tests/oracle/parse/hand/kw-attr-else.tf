else = 1

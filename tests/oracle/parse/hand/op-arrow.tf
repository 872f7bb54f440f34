x = a => b

a = { false = 1 }

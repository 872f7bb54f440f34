a = 0b1

a = x < = y

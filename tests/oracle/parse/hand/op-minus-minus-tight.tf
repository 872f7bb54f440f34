a = x--y

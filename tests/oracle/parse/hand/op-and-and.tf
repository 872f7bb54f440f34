a = x && && y

a = x || || y

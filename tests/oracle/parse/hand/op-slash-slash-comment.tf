a = x//y

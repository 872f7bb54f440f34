a = x/*y

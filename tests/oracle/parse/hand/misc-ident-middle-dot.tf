a·b = 1

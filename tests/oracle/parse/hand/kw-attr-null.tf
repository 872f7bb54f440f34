null = 1

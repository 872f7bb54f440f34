a = { null = 1 }

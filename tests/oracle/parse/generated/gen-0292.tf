null = f()

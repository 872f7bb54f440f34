x = f()

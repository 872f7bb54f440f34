a = f()

if = f()

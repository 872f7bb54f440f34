null =f()

é = f(false)

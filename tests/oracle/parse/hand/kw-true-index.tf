a = true[0]

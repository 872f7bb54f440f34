a = true

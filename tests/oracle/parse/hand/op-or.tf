x = true || false

x = true && false

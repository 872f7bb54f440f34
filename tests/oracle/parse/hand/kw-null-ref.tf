a = null.b

a = null.x

a = null.a

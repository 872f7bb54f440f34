a = null()

x = "s".x

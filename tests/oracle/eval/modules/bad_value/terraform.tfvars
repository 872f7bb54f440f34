n = "not a number"

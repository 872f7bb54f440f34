a = "a

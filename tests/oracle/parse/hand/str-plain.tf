a = "a"

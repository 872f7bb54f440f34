a = "\U0010ffff"

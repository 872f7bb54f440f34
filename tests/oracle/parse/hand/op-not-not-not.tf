x = !!!true

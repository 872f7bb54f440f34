a = 0o7

in = {}

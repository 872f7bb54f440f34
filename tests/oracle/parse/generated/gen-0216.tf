null = {}

x = [for x in y : k => v]

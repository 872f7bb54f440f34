x = {a}

x = {a ? b : c = 1}

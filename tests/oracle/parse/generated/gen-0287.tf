if = {in = 1 +a-b}
